/** Prints the OpenAPI document the server serves at /svc/v1/openapi.json (for `npm run lint:openapi`). */
import { allRoutes } from '../server/modules';
import { buildOpenApi } from '../server/api/openapi';

const pkg = (await import('../package.json', { with: { type: 'json' } })).default as { version: string };
// the served document names SVC_PUBLIC_URL; a relative server here
process.stdout.write(JSON.stringify(buildOpenApi(allRoutes(), { version: pkg.version, serverUrl: '' }), null, 2));
