// Phone numbers as accounts: the form a number is stored and looked up in, and how it is shown.

const MAINLAND_PREFIX = '86-';

/** spec §5 allows a country prefix: mainland's '86-' is dropped, other prefixes are kept as given. */
export function normalizePhone(phone: string): string {
  return phone.startsWith(MAINLAND_PREFIX) ? phone.slice(MAINLAND_PREFIX.length) : phone;
}

/** The default nickname of a phone sign-up: the number with its middle four digits hidden. */
export function maskedPhone(phone: string): string {
  return phone.replace(/(\d{3})\d{4}(\d{4})$/, '$1****$2');
}
