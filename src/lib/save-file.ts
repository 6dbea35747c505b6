/** Offers bytes or text as a file download (a Blob and a temporary link), as a browser's "Save as". */
export function saveFile(name: string, data: Uint8Array | string, type: string): void {
  // fflate and TextEncoder answer with arrays over their own ArrayBuffer: no copy is needed.
  const blob = new Blob([data as string | Uint8Array<ArrayBuffer>], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the link's URL may go.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
