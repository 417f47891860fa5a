// What a page being rendered gets when it asks this server for a file (own-files.ts) or a font (font-cache.ts).
export interface OwnResponse {
  status: number;
  contentType: string;
  body: Buffer;
}
