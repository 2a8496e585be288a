// A Preact binding for @tanstack/virtual-core (the same lifecycle its React adapter uses): one Virtualizer per
// component, options refreshed every render, a re-render whenever the visible range changes.
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';

type Options = Pick<VirtualizerOptions<HTMLDivElement, HTMLDivElement>, 'count' | 'getScrollElement' | 'estimateSize'> &
  Partial<VirtualizerOptions<HTMLDivElement, HTMLDivElement>>;

export function useVirtualizer(options: Options): Virtualizer<HTMLDivElement, HTMLDivElement> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resolved: VirtualizerOptions<HTMLDivElement, HTMLDivElement> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    overscan: 12,
    ...options,
    onChange: (instance, sync) => {
      rerender(0);
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => new Virtualizer<HTMLDivElement, HTMLDivElement>(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), []);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
