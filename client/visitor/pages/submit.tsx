/** `/events/submit` (extended edition): the public's event proposal form; filled in by issue 14. */
import type { JSX } from 'solid-js';
import { Page } from '../../ui/page';
import '../../styles/visitor.css';

export default function SubmitEventPage(): JSX.Element {
  return <Page title="Propose an event">{null}</Page>;
}
