import { fireEvent, waitFor } from '@testing-library/preact';

/**
 * Clicks a button as a person can: once it is enabled. A button that a running request disabled (a conflict
 * notice that renders while its save is still finishing) is clicked when the request has settled.
 */
export async function press(button: HTMLElement): Promise<void> {
  await waitFor(() => {
    if ((button as HTMLButtonElement).disabled) throw new Error(`"${button.textContent}" is still disabled`);
  });
  fireEvent.click(button);
}
