import {
  ApiClientError,
  CONVERTER_PRODUCT_ID,
  createApiClient,
  endpoints,
  productDevice,
  type ApiClient,
  type TUserInfo,
} from '@xcad/protocol';
import type { Recipe } from './recipe';

// What a visitor of the recipe's public origin does, through nginx only: sign in with an SMS code
// (read, as a tester of a test host reads it, from the API's log), buy a membership in the
// sandbox (paid, as the tester pays, on an API host's loopback), convert a drawing and fetch the
// result. Used by the recipe's smoke and fault tests and by bench:deploy.

export interface Member {
  client: ApiClient;
  phone: string;
  user: TUserInfo;
}

export function siteClient(recipe: Pick<Recipe, 'origin' | 'signSecret'>, deviceid: string): ApiClient {
  return createApiClient({
    baseUrl: recipe.origin,
    secret: recipe.signSecret,
    domain: new URL(recipe.origin).host,
    device: () => productDevice(deviceid, { deviceos: 'Linux' }),
  });
}

async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signs `phone` in (or up) with an SMS code, as the login modal's 登录/注册 tab does. */
export async function signInBySms(recipe: Recipe, phone: string): Promise<Member> {
  const client = siteClient(recipe, `recipe-${phone}`);
  const before = recipe.smsCodesFor(phone).length;
  await client.call(endpoints.smsverify, { account: phone, verifytype: 'quicklogin' });
  const smscode = await poll('the SMS code in the API log', () => Promise.resolve(recipe.smsCodesFor(phone)[before]), 10_000);
  const { userinfo } = await client.call(endpoints.loginquick, { account: phone, smscode, showvip: true });
  return { client, phone, user: userinfo };
}

const signedIn = (member: Member) => ({ account: member.phone, usertoken: member.user.usertoken });

/** Orders `packageid` of `productid` and pays it with the sandbox cashier's 确认支付; resolves the order number. */
export async function buyWithSandbox(recipe: Recipe, member: Member, productid: number, packageid: number): Promise<string> {
  const { orderno } = await member.client.call(endpoints.memorder, { ...signedIn(member), productid, packageid, paytype: 'wxpay' });
  const paid = await recipe.onApiHost('/api/dev/pay/confirm', { orderno });
  if (paid.status !== 200 || !paid.body.includes('"code":10000'))
    throw new Error(`the sandbox confirm of ${orderno} answered ${paid.status} ${paid.body}`);
  await poll(
    `order ${orderno} paid`,
    async () =>
      (await member.client.call(endpoints.payorderstatedetails, { ...signedIn(member), orderno })).state === 'paid' ? true : undefined,
    10_000,
  );
  return orderno;
}

/** The member's membership expiry of `productid` (epoch seconds), or undefined. */
export async function membershipOf(member: Member, productid: number): Promise<number | undefined> {
  const { userinfo } = await member.client.call(endpoints.memrole, { ...signedIn(member), productid });
  const entry = userinfo.vip.find((vip) => Number(vip.productid) === productid);
  return entry === undefined ? undefined : Number(entry.auth_value);
}

/** Sends a chunk; a chunk cut off by a dying API (502, reset) is sent again, as the tool pages' uploads resume. */
async function sendChunk(origin: string, query: URLSearchParams, bytes: Uint8Array<ArrayBuffer>, isLast: boolean): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(`${origin}/api/v4/uploadfile?${query.toString()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      const answer = (await response.json()) as { code?: number };
      if (answer.code === (isLast ? 10000 : 11000)) return;
      if (response.status < 500) throw new Error(`uploadfile answered ${response.status} ${JSON.stringify(answer)}`);
    } catch (error) {
      if (attempt >= 3 || (error instanceof Error && error.message.startsWith('uploadfile answered'))) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Uploads a drawing for conversion to PDF; resolves its tasktag once the last chunk has queued the job. */
export async function startConversion(recipe: Recipe, member: Member, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const task = await member.client.call(endpoints.uploadpar, {
    ...signedIn(member),
    filename: name,
    filecount: 1,
    tasktype: 'cad2pdf',
    outputfileextension: 'pdf',
  });
  const query = new URLSearchParams({
    tasktag: task.tasktag,
    timestamp: String(task.timestamp),
    tasktoken: task.tasktoken,
    fileindex: '0',
    chunks: '1',
    chunk: '0',
  });
  await sendChunk(recipe.origin, query, bytes, true);
  return task.tasktag;
}

/** Waits for a task to end; resolves 'done' or 'failed'. */
export async function taskOutcome(member: Member, tasktag: string, timeoutMs: number): Promise<'done' | 'failed'> {
  return poll(
    `task ${tasktag}`,
    async () => {
      // taskstate answers 20000 while the task runs, which the client reports as a refusal.
      const code = await member.client.call(endpoints.taskstate, { ...signedIn(member), tasktag, ifshowtxt: 0 }).then(
        (state) => state.code,
        (error: unknown) => (error instanceof ApiClientError ? error.code : 0),
      );
      if (code === 10000) return 'done';
      if (code === 18000) return 'failed';
      return undefined;
    },
    timeoutMs,
  );
}

/** The converted file, fetched through the download link taskdown signs. */
export async function resultOf(recipe: Recipe, member: Member, tasktag: string): Promise<Buffer> {
  const { downurl } = await member.client.call(endpoints.taskdown, { ...signedIn(member), tasktag });
  const response = await fetch(new URL(downurl, recipe.origin));
  if (response.status !== 200) throw new Error(`the result of ${tasktag} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The converter membership's cheapest package (spec §6 product 202, month). */
export const CONVERTER_MONTH = { productid: CONVERTER_PRODUCT_ID, packageid: 2023 } as const;
