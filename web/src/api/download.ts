/**
 * Hands a file the API answered to the browser as a download. Exports need the session's bearer token, which a plain
 * link cannot carry, so the file is fetched first; its name is the server's (`Content-Disposition`) or `fallback`.
 */
export function saveDownload(response: Response, file: Blob, fallback: string): void {
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? fallback;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
