import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

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
  plugins: [
    solid(),
    VitePWA({
      registerType: 'prompt',
      // client/pwa.ts registers /sw.js itself with workbox-window
      injectRegister: false,
      strategies: 'generateSW',
      filename: 'sw.js',
      // globPatterns below already precache the icons; listing them here too would duplicate entries
      includeManifestIcons: false,
      manifest: {
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
      },
      workbox: {
        // the app shell; manifest.webmanifest is precached by the plugin itself (a glob would list it twice)
        // wasm: the camera's QR decoder (ZXing-C++, ~1.1 MB, under workbox's 2 MB per-file limit), so the door reads codes offline
        globPatterns: ['**/*.{js,css,html,png,ico,svg,wasm}'],
        navigateFallback: '/index.html',
        // API paths are never answered with the app shell
        navigateFallbackDenylist: [/^\/trpc(\/|$)/, /^\/svc(\/|$)/],
        // no runtimeCaching: API answers are never cached by the service worker (data lives in Dexie)
        cleanupOutdatedCaches: true,
        // take control on first install; an update still waits for applyUpdate() (prompt)
        clientsClaim: true,
      },
    }),
  ],
});
