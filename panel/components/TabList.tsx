// A row of tabs as the ARIA tabs pattern has them: one Tab stop (the selected tab), ←/→ move to the neighbouring tab
// and select it. The arrows stop here: on a tab they used to reach the scrubber, which moved a step while the tab
// stayed. Home/End (optional in the pattern) are left to the scrubber: first/last step from anywhere, as before.
import type { ComponentChildren } from 'preact';

export function TabList<T extends string>({ tabs, selected, onSelect, label }: {
  tabs: readonly (readonly [id: T, content: ComponentChildren])[];
  selected: T;
  onSelect: (id: T) => void;
  label: string;
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
        <button key={id} role="tab" aria-selected={id === selected} tabIndex={id === selected ? 0 : -1} onClick={() => onSelect(id)} data-tab={id}>
          {content}
        </button>
      ))}
    </div>
  );
}
