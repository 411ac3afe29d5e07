/**
 * The PWA's route rule, one place for the client router (client/router.tsx) and the server's
 * preload header (server/static.ts): a pattern matches a path with the same number of segments,
 * `:name` matching any one segment (percent-decoded; a malformed one matches nothing).
 */

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** The first route whose pattern matches `pathname`, with its decoded params. */
export function matchRoute<R extends { path: string }>(routes: readonly R[], pathname: string): { route: R; params: Record<string, string> } | null {
  const segments = splitPath(pathname);
  for (const route of routes) {
    const pattern = splitPath(route.path);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i] as string;
      if (!part.startsWith(':')) return part === segment;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
        return true;
      } catch {
        return false; // malformed percent-encoding: not this route
      }
    });
    if (matches) return { route, params };
  }
  return null;
}
