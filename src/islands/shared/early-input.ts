import { useLayoutEffect, type RefObject } from 'react';

/**
 * What a person typed, chose or the browser autofilled in a server-rendered form before its
 * island hydrated: field name → value, for each text field, text area and select whose value
 * differs from the one rendered, and each radio group whose choice does. React keeps such a value in the DOM while hydrating but not in the
 * island's state, so the next render would wipe it and the buttons would not know of it.
 */
export function typedBeforeHydration(form: HTMLFormElement): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLInputElement) {
      if (element.type === 'radio') {
        if (element.name && element.checked && !element.defaultChecked) typed[element.name] = element.value;
        continue;
      }
      if (['checkbox', 'file', 'hidden', 'submit', 'button'].includes(element.type)) continue;
      if (element.tabIndex < 0) continue; // a honeypot, out of the tab order: never a person's input
      if (element.name && element.value !== element.defaultValue) typed[element.name] = element.value;
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.name && element.value !== element.defaultValue) typed[element.name] = element.value;
    } else if (element instanceof HTMLSelectElement) {
      const rendered = Array.from(element.options).find((option) => option.defaultSelected) ?? element.options[0];
      if (element.name && element.value !== (rendered?.value ?? '')) typed[element.name] = element.value;
    }
  }
  return typed;
}

/** Takes the early input into the island's state once, right after hydration. */
export function useEarlyInput(form: RefObject<HTMLFormElement | null>, adopt: (typed: Record<string, string>) => void) {
  useLayoutEffect(() => {
    if (!form.current) return;
    const typed = typedBeforeHydration(form.current);
    if (Object.keys(typed).length > 0) adopt(typed);
    // Once, at hydration: later typing goes through the fields' own handlers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
