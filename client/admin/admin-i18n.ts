/**
 * The admin app's words (docs/decisions/027-languages.md): its bundle is loaded in the reader's
 * locale before any admin screen renders. Every admin page imports this first; sign-in and the
 * invite page use the public bundle, so a visitor's first page never waits for it.
 */
import { useBundle } from '../i18n/i18n';

await useBundle('admin');
