import { Show } from 'solid-js';
import type { ImageDto } from '../../../shared/images';

/**
 * An event's or booking type's cover (docs/api.md#images): every variant in `srcset` so the
 * browser picks the width it needs, and the stored size as width/height so the page does not
 * move when it arrives. `lazy` on lists, where most covers start below the fold.
 */
export function CoverImage(props: { image: ImageDto | null | undefined; alt: string; sizes: string; lazy?: boolean; class?: string }) {
  return (
    <Show when={props.image}>
      {(image) => (
        <img
          class={props.class ?? 'v-cover'}
          src={image().url}
          srcset={image().srcset}
          sizes={props.sizes}
          width={image().width}
          height={image().height}
          alt={image().alt ?? props.alt}
          loading={props.lazy ? 'lazy' : 'eager'}
          // a page's own cover is its largest paint: fetched first (the shell preloads it too)
          fetchpriority={props.lazy ? 'auto' : 'high'}
          decoding="async"
        />
      )}
    </Show>
  );
}
