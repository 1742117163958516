// The UserFile (docs/api.md 4.2): what a `files` field holds once the execute endpoint has taken it in.
export interface UserFile {
  /** Signed download URL of this service, or the caller's own URL for `url` files. */
  url: string;
  name: string;
  /** Bytes; null for `url` files, whose size is unknown without fetching them. */
  size: number | null;
  /** MIME type. */
  type: string;
  /** ISO 8601; absent for `url` files. */
  uploadedAt?: string;
  /** ISO 8601 expiry of `url`; absent for `url` files. */
  expiresAt?: string;
}
