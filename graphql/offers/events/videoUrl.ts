/**
 * A video must be a public video page on a video-sharing site: a watch page, not a short,
 * not a channel, user or playlist page.
 */
const videoPages: { hosts: RegExp; isVideo: (url: URL) => boolean }[] = [
  {
    hosts: /^(www\.|m\.)?youtube\.com$/,
    isVideo: (url) =>
      (url.pathname === '/watch' && /^[\w-]{6,}$/.test(url.searchParams.get('v') ?? '')) ||
      /^\/(embed|live)\/[\w-]{6,}\/?$/.test(url.pathname),
  },
  { hosts: /^youtu\.be$/, isVideo: (url) => /^\/[\w-]{6,}\/?$/.test(url.pathname) },
  { hosts: /^(www\.|player\.)?vimeo\.com$/, isVideo: (url) => /^\/(video\/)?\d+\/?$/.test(url.pathname) },
  { hosts: /^(www\.)?dailymotion\.com$/, isVideo: (url) => /^\/video\/[a-z0-9]+\/?$/i.test(url.pathname) },
  { hosts: /^dai\.ly$/, isVideo: (url) => /^\/[a-z0-9]+\/?$/i.test(url.pathname) },
];

export function videoUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The video URL is not a valid URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The video URL must be a web address';
  const site = videoPages.find((page) => page.hosts.test(url.hostname.toLowerCase()));
  if (!site) return 'The video must be on a video-sharing site (YouTube, Vimeo or Dailymotion)';
  if (/\/shorts\//.test(url.pathname)) return 'The video cannot be a short';
  if (!site.isVideo(url)) return 'The URL must be the page of one public video, not a channel, profile or playlist';
  return null;
}
