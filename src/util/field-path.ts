/** `['faq', 3, 'a']` → `faq[3].a`, the way fields are named in messages. */
export function formatField(at: readonly PropertyKey[]): string {
  let out = '';
  for (const key of at) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(file)';
}
