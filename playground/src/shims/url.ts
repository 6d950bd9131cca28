/** `node:url` for the browser bundle: the library's package root is `/` of the in-memory file system. */
export function fileURLToPath(_url: string | URL): string {
  return '/';
}
export function pathToFileURL(path: string): URL {
  return new URL(`file://${path}`);
}
export default { fileURLToPath, pathToFileURL };
