/** Handles by table and (upper-case) name, given out on first use. */
export const upper = (s: string): string => s.toUpperCase();

/** Handles by table and (upper-case) name, given out on first use. */
export class HandleTable {
  private readonly map = new Map<string, string>();
  readonly names = new Map<string, string>();
  constructor(private readonly next: () => string) {}
  get(name: string): string {
    const key = upper(name);
    let h = this.map.get(key);
    if (!h) {
      h = this.next();
      this.map.set(key, h);
      this.names.set(key, name);
    }
    return h;
  }
  has(name: string): boolean {
    return this.map.has(upper(name));
  }
}
