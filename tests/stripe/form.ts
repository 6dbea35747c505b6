/**
 * Stripe's request bodies (and GET queries) are form-encoded with bracketed keys, as its API
 * reference shows for every call (https://docs.stripe.com/api, "curl -d line_items[0][price]=…";
 * the `stripe` client encodes nested objects and arrays the same way): `metadata[key]=v`,
 * `line_items[0][price_data][currency]=usd`, `expand[0]=latest_charge` (or `expand[]=…`).
 * This reads them back into nested objects and arrays.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const keyParts = (key: string): string[] => {
  const first = key.indexOf('[');
  if (first === -1) return [key];
  const parts = [key.slice(0, first)];
  for (const match of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1] ?? '');
  return parts;
};

/** Objects whose keys are all 0, 1, 2… become arrays (in index order). */
function arraysFromIndexes(value: FormValue): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(arraysFromIndexes);
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arraysFromIndexes(value[key] as FormValue);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key] as FormValue);
  }
  return converted;
}

export function parseStripeForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = keyParts(key);
    let node: FormObject = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      // `expand[]=a&expand[]=b`: an empty index appends.
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (last) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[name] = {};
      node = node[name] as FormObject;
    });
  }
  return arraysFromIndexes(root) as FormObject;
}

export const asString = (value: FormValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
export const asObject = (value: FormValue | undefined): FormObject | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
export const asList = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : []);
export const asStringRecord = (value: FormValue | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(asObject(value) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
