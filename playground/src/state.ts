/**
 * The shareable state (kernel, rules, "as written") in the URL hash: `#z=<base64url>` of the
 * deflate-raw compressed (CompressionStream) JSON `{"k":kernel,"r":rules,"w":1}`. Links of the
 * first form, `#k=<base64url>&r=<base64url>` of UTF-8 text, are still read.
 */

export interface PlaygroundState {
  kernel: string;
  rules: string;
  /** Judge the kernel as written (audit --as-written). */
  asWritten?: boolean;
}

function toBase64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** `bytes` through a compression or decompression stream. */
async function through(bytes: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The hash that holds `state`. */
export async function stateToHash(state: PlaygroundState): Promise<string> {
  const json = JSON.stringify({ k: state.kernel, ...(state.rules === '' ? {} : { r: state.rules }), ...(state.asWritten ? { w: 1 } : {}) });
  return `#z=${toBase64url(await through(new TextEncoder().encode(json), new CompressionStream('deflate-raw')))}`;
}

/** The state a hash holds, or undefined when it holds none (or cannot be read). */
export async function stateFromHash(hash: string): Promise<PlaygroundState | undefined> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  try {
    const z = params.get('z');
    if (z !== null) {
      const json: unknown = JSON.parse(new TextDecoder().decode(await through(fromBase64url(z), new DecompressionStream('deflate-raw'))));
      if (typeof json !== 'object' || json === null) return undefined;
      const o = json as { k?: unknown; r?: unknown; w?: unknown };
      if (typeof o.k !== 'string') return undefined;
      return { kernel: o.k, rules: typeof o.r === 'string' ? o.r : '', asWritten: o.w === 1 };
    }
    const k = params.get('k');
    if (k === null) return undefined;
    const text = (s: string): string => new TextDecoder().decode(fromBase64url(s));
    return { kernel: text(k), rules: text(params.get('r') ?? '') };
  } catch {
    return undefined;
  }
}
