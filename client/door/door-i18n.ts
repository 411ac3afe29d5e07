/**
 * The door's words (docs/decisions/027-languages.md): its bundle is loaded in the reader's
 * locale before any door screen renders. Every door module that shows text imports this first.
 */
import { useBundle } from '../i18n/i18n';

await useBundle('door');
