import { type Site, startSite } from "@rewards/example-site";

export interface LocalSiteOptions {
  /** READER_URL: the local read API's address. */
  readerUrl: string;
  /** Where a failed read's cause goes (the page says only that it failed). */
  onReadFailure?: (error: unknown) => void;
}

/**
 * The example reader's page (examples/site) beside the local read API: it reads READER_URL
 * unsigned, as the local function URL takes requests signed or not; SITE_URL is its address.
 */
export function startLocalSite(options: LocalSiteOptions): Promise<Site> {
  return startSite({
    url: options.readerUrl,
    credentials: "unsigned",
    ...(options.onReadFailure ? { onReadFailure: options.onReadFailure } : {}),
  });
}
