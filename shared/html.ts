/** HTML text and attribute escaping for markup built as strings (mail bodies, plugin-rendered form fields). */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * JSON inside a `<script>` element (JSON-LD, a page's data block): `<`, `>`, `&` and the line
 * separators as \u escapes, so no text in it can end the script or open a comment; JSON.parse
 * reads it back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
