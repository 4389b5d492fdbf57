/** Saves text the app received as a file in the browser's downloads. */
export function saveFile(text: string, type: string, fileName: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}
