/**
 * `npm run build`: the production build of the PWA into dist/client (or SVC_CLIENT_DIST), with the
 * brotli and gzip copies the server sends, exactly as `npm start` and the tests build it. A bare
 * `vite build` leaves out those copies, and the app is then served uncompressed.
 */
import { buildClient, CLIENT_DIST } from '../server/build-client';

buildClient(CLIENT_DIST);
