// How byte limits read in error messages; shared by the HTTP layer, the outbound client and file inputs.
/** "10 MB" for the default; exact bytes when the limit is not a round number of KB/MB. */
export function formatByteLimit(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
