/** The shareable state (kernel + rules) in the URL hash: `#k=<base64url>&r=<base64url>` of UTF-8 text. */

export interface PlaygroundState {
  kernel: string;
  rules: string;
}

function encode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(s: string): string {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** The hash that holds `state`. */
export function stateToHash(state: PlaygroundState): string {
  return `#k=${encode(state.kernel)}${state.rules === '' ? '' : `&r=${encode(state.rules)}`}`;
}

/** The state a hash holds, or undefined when it holds none (or cannot be read). */
export function stateFromHash(hash: string): PlaygroundState | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const k = params.get('k');
  if (k === null) return undefined;
  try {
    return { kernel: decode(k), rules: decode(params.get('r') ?? '') };
  } catch {
    return undefined;
  }
}
