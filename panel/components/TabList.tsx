// A row of tabs as the ARIA tabs pattern has them: one Tab stop (the selected tab), ←/→ move to the neighbouring tab
// and select it. The arrows stop here: on a tab they used to reach the scrubber, which moved a step while the tab
// stayed. Home/End (optional in the pattern) are left to the scrubber: first/last step from anywhere, as before.
// Each tab names the panel it shows (aria-controls) and the panel is a tabpanel labelled by the selected tab
// (`TabPanel`): without them a screen reader announced "tab, selected" and nothing tied it to the content below, so
// switching tabs gave no way to jump to, or hear the name of, what had changed.
import type { ComponentChildren, Ref } from 'preact';

/** The DOM id of tab `id` of the tab list whose panel is `panelId`. */
export const tabDomId = (panelId: string, id: string): string => `${panelId}-tab-${id}`;

export function TabList<T extends string>({ tabs, selected, onSelect, label, panelId }: {
  tabs: readonly (readonly [id: T, content: ComponentChildren])[];
  selected: T;
  onSelect: (id: T) => void;
  label: string;
  /** The id of the TabPanel showing the selected tab's content (one panel, its content swapped). */
  panelId: string;
}) {
  const onKeyDown = (e: KeyboardEvent) => {
    const at = tabs.findIndex(([id]) => id === selected);
    const to = e.key === 'ArrowRight' ? (at + 1) % tabs.length : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length : -1;
    if (to === -1) return;
    e.preventDefault();
    e.stopPropagation();
    onSelect(tabs[to][0]);
    const list = e.currentTarget as HTMLElement;
    requestAnimationFrame(() => list.querySelector<HTMLElement>(`[data-tab="${tabs[to][0]}"]`)?.focus());
  };
  return (
    <div class="tablist" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map(([id, content]) => (
        <button key={id} id={tabDomId(panelId, id)} role="tab" aria-selected={id === selected} aria-controls={panelId} tabIndex={id === selected ? 0 : -1} onClick={() => onSelect(id)} data-tab={id}>
          {content}
        </button>
      ))}
    </div>
  );
}

/** The panel of a TabList, labelled by its selected tab. */
export function TabPanel({ panelId, selected, class: cls, panelRef, tabIndex, children }: {
  panelId: string;
  selected: string;
  class?: string;
  panelRef?: Ref<HTMLDivElement>;
  tabIndex?: number;
  children: ComponentChildren;
}) {
  return (
    <div id={panelId} role="tabpanel" aria-labelledby={tabDomId(panelId, selected)} class={cls} ref={panelRef} tabIndex={tabIndex}>
      {children}
    </div>
  );
}
