import 'server-only';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { AbstractIntlMessages } from 'next-intl';
import type { Locale } from './locales';

// Every `messages/<locale>/<namespace>.json` file is one namespace (contract between the web
// helpers): web-frame and web-chrome each own their files and nothing lists them by hand.
const messagesRoot = path.join(process.cwd(), 'messages');

const cache = new Map<Locale, Promise<AbstractIntlMessages>>();

async function readLocaleMessages(locale: Locale): Promise<AbstractIntlMessages> {
  const folder = path.join(messagesRoot, locale);
  const files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
  const entries = await Promise.all(
    files.map(async (file) => {
      const namespace = file.slice(0, -'.json'.length);
      const content = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as AbstractIntlMessages;
      return [namespace, content] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** All namespaces of a locale, read once per process (re-read on every call in development). */
export function loadMessages(locale: Locale): Promise<AbstractIntlMessages> {
  if (process.env.NODE_ENV !== 'production') return readLocaleMessages(locale);
  let messages = cache.get(locale);
  if (!messages) {
    messages = readLocaleMessages(locale);
    cache.set(locale, messages);
    // A failed read must not be remembered: the next request tries again.
    messages.catch(() => cache.delete(locale));
  }
  return messages;
}
