import { randomBytes } from 'node:crypto';
import { AUTH_ERRORS, LOGIN_ERRORS } from '@xcad/protocol';
import { escapeHtml } from '../../lib/html';

// The small HTML pages of the QQ popup (start, dev authorisation, callback). Self-contained: no
// external assets, everything echoed is escaped, and a strict Content-Security-Policy allows
// only this response's own style and script (by nonce).

export interface HtmlPage {
  status: number;
  html: string;
  /** The Content-Security-Policy header of this page. */
  csp: string;
}

/** What the callback page posts to the window that opened the popup. */
export const LOGIN_MESSAGE_TYPE = 'xcad-login';

const CLOSE_DELAY_MS = 1_000;

/** A JSON literal safe inside a <script> element (no `</script>` or comment openers). */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

const STYLE = `
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{display:flex;align-items:center;justify-content:center;background:#f2f4f7;color:#1f2329;
font:14px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif}
.card{width:360px;max-width:calc(100% - 32px);padding:32px 28px;background:#fff;border-radius:8px;
box-shadow:0 4px 24px rgba(0,0,0,.08);text-align:center}
h1{margin:0 0 12px;font-size:20px;font-weight:600}
p{margin:0 0 20px;color:#646a73}
.error{color:#e5484d}
label{display:block;margin:0 0 6px;text-align:left;color:#646a73}
input{width:100%;height:40px;margin:0 0 20px;padding:0 12px;border:1px solid #d0d3d6;border-radius:4px;font-size:14px}
input:focus{outline:none;border-color:#12b7f5}
.actions{display:flex;gap:12px}
button{flex:1;height:40px;border:1px solid #d0d3d6;border-radius:4px;background:#fff;color:#1f2329;font-size:14px;cursor:pointer}
button.primary{border-color:#12b7f5;background:#12b7f5;color:#fff}
button:hover{opacity:.9}
`;

interface PageParts {
  status: number;
  title: string;
  /** Inner HTML of the card, already escaped. */
  body: string;
  /** Inline script, allowed by this response's nonce. */
  script?: string;
  /** Origins the page's form may submit to (and be redirected to). */
  formAction?: readonly string[];
}

function pageOf(parts: PageParts): HtmlPage {
  const nonce = randomBytes(16).toString('base64');
  const directives = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    parts.script === undefined ? "script-src 'none'" : `script-src 'nonce-${nonce}'`,
    parts.formAction === undefined ? "form-action 'none'" : `form-action ${parts.formAction.join(' ')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  const script = parts.script === undefined ? '' : `<script nonce="${nonce}">${parts.script}</script>`;
  const html = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(parts.title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main class="card">
${parts.body}
</main>
${script}
</body>
</html>
`;
  return { status: parts.status, html, csp: directives.join('; ') };
}

const CLOSE_BUTTON = '<div class="actions"><button type="button" id="close" class="primary" data-testid="oauth-close">关闭</button></div>';
const CLOSE_SCRIPT = "document.getElementById('close').addEventListener('click',function(){window.close();});";

function messagePage(status: number, title: string, message: string, script: string = CLOSE_SCRIPT): HtmlPage {
  return pageOf({
    status,
    title,
    body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n${CLOSE_BUTTON}`,
    script,
  });
}

/** /api/oauth/qq/start with an unknown or expired logintag. */
export function loginExpiredPage(): HtmlPage {
  return messagePage(400, '登录已过期', '登录已过期，请关闭此窗口后重新登录。');
}

/**
 * The end of the popup: tells the opener which login finished (it also keeps polling
 * `wechatstate`, so a lost message only delays the login) and closes when signed in.
 */
function openerNotice(logintag: string, publicOrigin: string, shouldClose: boolean): string {
  const message = scriptLiteral({ type: LOGIN_MESSAGE_TYPE, logintag });
  const target = scriptLiteral(new URL(publicOrigin).origin);
  const close = shouldClose ? `setTimeout(function(){window.close();},${CLOSE_DELAY_MS});` : '';
  return `try{if(window.opener){window.opener.postMessage(${message},${target});}}catch(e){}${close}${CLOSE_SCRIPT}`;
}

export function qqSignedInPage(logintag: string, publicOrigin: string): HtmlPage {
  return messagePage(200, '登录成功', '登录成功，窗口即将关闭', openerNotice(logintag, publicOrigin, true));
}

/** spec §8 10063: the opener shows its abnormal-account cover; the popup stays to say why. */
export function qqAbnormalAccountPage(logintag: string, publicOrigin: string): HtmlPage {
  return messagePage(200, 'QQ登录失败', LOGIN_ERRORS.accountAbnormal.message, openerNotice(logintag, publicOrigin, false));
}

export function qqCancelledPage(): HtmlPage {
  return messagePage(200, 'QQ登录已取消', '您已取消QQ登录，可关闭此窗口。');
}

export function qqFailedPage(): HtmlPage {
  return messagePage(400, 'QQ登录失败', AUTH_ERRORS.providerFailed.message);
}

export interface QqDevAuthorizeForm {
  state: string;
  redirectUri: string;
  nickname: string;
  /** Where the form posts. */
  action: string;
  /** Origins the browser may be sent on to after the post. */
  formOrigins: readonly string[];
  /** Why the previous submission was refused. */
  error?: string;
}

/** The dev provider's stand-in for graph.qq.com's authorisation page; works without script. */
export function qqDevAuthorizePage(form: QqDevAuthorizeForm): HtmlPage {
  const error = form.error === undefined ? '' : `<p class="error" role="alert" data-testid="qq-dev-error">${escapeHtml(form.error)}</p>\n`;
  const body = `<h1>QQ登录（开发环境）</h1>
<p>开发环境不会连接QQ，填写昵称即可以测试用户身份登录。</p>
${error}<form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="state" value="${escapeHtml(form.state)}">
<input type="hidden" name="redirect_uri" value="${escapeHtml(form.redirectUri)}">
<label for="nickname">昵称</label>
<input id="nickname" name="nickname" value="${escapeHtml(form.nickname)}" maxlength="20" required data-testid="qq-dev-nickname">
<div class="actions">
<button type="submit" name="decision" value="cancel" formnovalidate data-testid="qq-dev-cancel">取消</button>
<button type="submit" name="decision" value="authorize" class="primary" data-testid="qq-dev-authorize">授权并登录</button>
</div>
</form>`;
  return pageOf({ status: form.error === undefined ? 200 : 400, title: 'QQ登录（开发环境）', body, formAction: form.formOrigins });
}

/** The dev authorisation page refused its request (no state, or a redirect_uri that is not ours). */
export function qqDevBadRequestPage(): HtmlPage {
  return messagePage(400, 'QQ登录失败', '授权请求无效，请关闭此窗口后重新登录。');
}
