/** `node:string_decoder` for the browser bundle (facts-io is bundled but never called there). */
export class StringDecoder {
  private readonly d = new TextDecoder();
  write(b: Uint8Array): string {
    return this.d.decode(b, { stream: true });
  }
  end(): string {
    return this.d.decode();
  }
}
export default { StringDecoder };
