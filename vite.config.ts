import { defineConfig, type Plugin } from 'vite';
import solid from 'vite-plugin-solid';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@formatjs/icu-messageformat-parser';

const API_TARGET = 'http://localhost:3000';
const THEME_COLOR = '#0b5cad'; // the icons' background (client/scripts/make-icons.mjs)

// The API checks Origin on cookie-authenticated writes; through the dev proxy the browser's
// Origin is the Vite server's, so present the API's own origin (dev only).
const apiProxy = {
  target: API_TARGET,
  changeOrigin: true,
  configure(proxy: { on(event: 'proxyReq', cb: (req: { setHeader(name: string, value: string): void }) => void): void }) {
    proxy.on('proxyReq', (req) => req.setHeader('origin', API_TARGET));
  },
};

/**
 * The app's base stylesheet (client/styles.css, the entry's CSS) goes into index.html as a
 * <style>, so no stylesheet blocks the first paint (docs/decisions/019-fast-first-paint.md). CSP allows it:
 * style-src has 'unsafe-inline' (server/http.ts); scripts stay external. The file leaves the
 * build, and the entry chunk's CSS list, which Vite copies into the preload list of every chunk
 * that imports from the entry: nothing fetches it, or appends it again after a page's own styles.
 * Runs after Vite's HTML plugin has written index.html, before its preload lists are rendered.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'svc-inline-entry-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      let source = String(html.source);
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || !chunk.viteMetadata) continue;
        for (const file of [...chunk.viteMetadata.importedCss]) {
          const css = bundle[file];
          const at = source.indexOf(`href="/${file}"`);
          const start = source.lastIndexOf('<link', at);
          const end = source.indexOf('>', at);
          if (!css || css.type !== 'asset' || at < 0 || start < 0 || end < 0) throw new Error(`index.html does not link ${file}`);
          source = `${source.slice(0, start)}<style>${String(css.source)}</style>${source.slice(end + 1)}`;
          chunk.viteMetadata.importedCss.delete(file);
          delete bundle[file];
        }
      }
      html.source = source;
    },
  };
}

/** A locale's catalogue in one of the bundles: client/i18n/{messages,door,admin}/<locale>.json. */
const CATALOGUE_FILE = /[\\/]client[\\/]i18n[\\/](?:messages|door|admin)[\\/]([A-Za-z-]+)\.json$/;
/** The public bundle's catalogues: the entry awaits one before the first render, so the shell preloads it. */
const PUBLIC_CATALOGUE_FILE = /[\\/]client[\\/]i18n[\\/]messages[\\/]([A-Za-z-]+)\.json$/;
/** The door's and the admin's catalogues, and the module that awaits each before its first screen. */
const AREA_CATALOGUES = {
  door: { file: /[\\/]client[\\/]i18n[\\/]door[\\/]([A-Za-z-]+)\.json$/, loader: /[\\/]client[\\/]door[\\/]door-i18n\.ts$/ },
  admin: { file: /[\\/]client[\\/]i18n[\\/]admin[\\/]([A-Za-z-]+)\.json$/, loader: /[\\/]client[\\/]admin[\\/]admin-i18n\.ts$/ },
} as const;

/**
 * Each catalogue is compiled to ICU message ASTs as it is bundled (what `formatjs compile --ast`
 * writes), so the client formats without parsing and ships without the parser (aliased to its
 * no-parser build below): docs/decisions/027-languages.md. A message that does not parse fails
 * the build with its key.
 */
function compileCatalogues(): Plugin {
  return {
    name: 'svc-compile-catalogues',
    enforce: 'pre',
    transform(code, id) {
      if (!CATALOGUE_FILE.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => {
          try {
            return [key, parse(message)];
          } catch (error) {
            throw new Error(`${id}: ${key} is not an ICU message: ${(error as Error).message}`, { cause: error });
          }
        }),
      );
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

/** The route tables, in the order client/app.tsx joins them (the first matching path wins). */
const ROUTE_TABLES = ['routes/visitor.ts', 'routes/door.ts', 'routes/admin.ts'];
const ROUTE_ENTRY = /\{\s*path:\s*'([^']+)',\s*component:\s*lazy\(\(\)\s*=>\s*import\('([^']+)'\)\)\s*\}/g;

/** Each `{ path, component: lazy(() => import('…')) }` of the route tables, its module resolved to a file. */
function readRoutes(root: string): Array<{ path: string; module: string }> {
  const routes: Array<{ path: string; module: string }> = [];
  for (const table of ROUTE_TABLES) {
    const source = readFileSync(path.join(root, table), 'utf8');
    const found = [...source.matchAll(ROUTE_ENTRY)];
    // a route written another way would silently lose its preload: refuse the build instead
    if (found.length !== (source.match(/\bpath:/g) ?? []).length)
      throw new Error(`${table}: write every route as { path: '…', component: lazy(() => import('…')) }`);
    for (const [, routePath, spec] of found) {
      const base = path.resolve(path.dirname(path.join(root, table)), spec!);
      const module = ['.tsx', '.ts'].map((ext) => base + ext).find((file) => existsSync(file));
      if (!module) throw new Error(`${table}: ${spec} is not a file`);
      routes.push({ path: routePath!, module });
    }
  }
  return routes;
}

/**
 * route-preloads.json: for each route, the chunks its page imports (its own, the ones it imports
 * statically, not the entry) and their stylesheets. The server names them in a Link header on the
 * page's index.html (server/static.ts), so the browser fetches them beside the entry script
 * instead of after the entry has run and the router asked for the page (docs/decisions/019-fast-first-paint.md).
 */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'svc-route-preloads',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
      const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      // the chunk holding each area's loader: a route that imports it awaits that area's catalogue
      const loaders = Object.entries(AREA_CATALOGUES).map(([area, { loader }]) => ({
        area,
        chunk: chunks.find((c) => c.moduleIds.some((id) => loader.test(id)))?.fileName,
      }));
      const preloads = readRoutes(root).map((route) => {
        const page = byModule.get(route.module);
        if (!page) throw new Error(`no chunk for the route ${route.path} (${route.module})`);
        const js: string[] = [];
        const css: string[] = [];
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (entries.has(fileName) || js.includes(fileName) || chunk?.type !== 'chunk') return;
          js.push(fileName);
          for (const file of chunk.viteMetadata?.importedCss ?? []) if (!css.includes(file)) css.push(file);
          chunk.imports.forEach(visit);
        };
        visit(page.fileName);
        const areas = loaders.filter((l) => l.chunk && js.includes(l.chunk)).map((l) => l.area);
        return { path: route.path, js: js.map((f) => `/${f}`), css: css.map((f) => `/${f}`), areas };
      });
      // each locale's catalogue chunk: the entry awaits it before the first render, so the shell preloads it
      const locales: Record<string, string[]> = {};
      // and the door's and the admin's, which their pages await before their first screen
      const areaLocales: Record<string, Record<string, string[]>> = { door: {}, admin: {} };
      for (const chunk of chunks) {
        if (!chunk.facadeModuleId) continue;
        const locale = PUBLIC_CATALOGUE_FILE.exec(chunk.facadeModuleId)?.[1];
        if (locale) locales[locale] = [`/${chunk.fileName}`];
        for (const [area, { file }] of Object.entries(AREA_CATALOGUES)) {
          const areaLocale = file.exec(chunk.facadeModuleId)?.[1];
          if (areaLocale) areaLocales[area]![areaLocale] = [`/${chunk.fileName}`];
        }
      }
      // the entry first: hints in a header are fetched in their order, before index.html names it
      const table = { entry: [...entries].map((f) => `/${f}`), routes: preloads, locales, areaLocales };
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: `${JSON.stringify(table, null, 1)}\n` });
    },
  };
}

/**
 * The web app manifest as built (English). The server answers /manifest.webmanifest from this file
 * with its words in the reader's language (server/manifest.ts, docs/decisions/027-languages.md).
 */
const WEB_MANIFEST: Partial<ManifestOptions> = {
  id: '/',
  name: 'svc',
  short_name: 'svc',
  description: 'Event check-in and bookings, online or offline.',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: '#ffffff',
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

/**
 * The manifest in each locale, precached by the service worker beside the build's copy: the shell
 * and the page link `/manifest.webmanifest?lang=<locale>`, so it is there offline in every language.
 * Its revision changes with the build's manifest or the locale's words in the server's catalogue.
 */
function localizedManifestEntries(): Array<{ url: string; revision: string }> {
  const folder = new URL('./server/i18n/messages/', import.meta.url);
  const locales = readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length));
  return locales.map((locale) => {
    const words = JSON.parse(readFileSync(new URL(`${locale}.json`, folder), 'utf8')) as Record<string, string>;
    const manifestWords = Object.entries(words).filter(([key]) => key.startsWith('manifest.'));
    const revision = createHash('sha256')
      .update(JSON.stringify([WEB_MANIFEST, manifestWords]))
      .digest('hex')
      .slice(0, 32);
    return { url: `/manifest.webmanifest?lang=${locale}`, revision };
  });
}

export default defineConfig({
  root: 'client',
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    proxy: { '/svc': apiProxy, '/trpc': apiProxy },
  },
  resolve: {
    // every catalogue arrives compiled (compileCatalogues): the client needs no ICU parser
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
  },
  plugins: [
    compileCatalogues(),
    solid(),
    inlineEntryCss(),
    routePreloads(),
    VitePWA({
      registerType: 'prompt',
      // client/pwa.ts registers /sw.js itself with workbox-window
      injectRegister: false,
      strategies: 'generateSW',
      filename: 'sw.js',
      // globPatterns below already precache the icons; listing them here too would duplicate entries
      includeManifestIcons: false,
      manifest: WEB_MANIFEST,
      workbox: {
        // the app shell; manifest.webmanifest is precached by the plugin itself (a glob would list it twice),
        // its copy per locale by additionalManifestEntries
        // wasm: the camera's QR decoder (ZXing-C++, ~1.1 MB, under workbox's 2 MB per-file limit), so the door reads codes offline
        globPatterns: ['**/*.{js,css,html,png,ico,svg,wasm}'],
        navigateFallback: '/index.html',
        // API paths are never answered with the app shell
        // … nor an embedded page, whose framing policy only the server's answer carries (docs/decisions/052-embeds.md)
        navigateFallbackDenylist: [/^\/trpc(\/|$)/, /^\/svc(\/|$)/, /^\/media\//, /[?&]embed=1(&|$)/],
        // API answers are never cached by the service worker (data lives in Dexie). Cover images
        // are: their /media/ addresses change with their content, so a visited page keeps its
        // pictures offline (docs/decisions/049-cover-images.md); bounded so the cache stays small.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/media/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'svc-media',
              expiration: { maxEntries: 120, maxAgeSeconds: 60 * 60 * 24 * 60 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
        additionalManifestEntries: localizedManifestEntries(),
        cleanupOutdatedCaches: true,
        // take control on first install; an update still waits for applyUpdate() (prompt)
        clientsClaim: true,
      },
    }),
  ],
});
