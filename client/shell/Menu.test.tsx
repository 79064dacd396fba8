import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { Menu } from './Menu.tsx';

function renderMenu() {
  render(
    <>
      <Menu label="Sprache" button={<span>DE</span>}>
        <li role="none">
          <button type="button" role="menuitem">
            Eins
          </button>
        </li>
        <li role="none">
          <button type="button" role="menuitem">
            Zwei
          </button>
        </li>
      </Menu>
      <p>Draußen</p>
    </>,
  );
  return screen.getByRole('button', { name: 'Sprache' });
}

describe('menu', () => {
  test('opens on click with focus on the first item, and arrow keys move between items', () => {
    const button = renderMenu();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Eins');
    fireEvent.keyDown(document, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Zwei');
    fireEvent.keyDown(document, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Eins');
    fireEvent.keyDown(document, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Zwei');
  });

  test('Escape closes it and returns focus to the button', () => {
    const button = renderMenu();
    fireEvent.click(button);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  test('a click outside or on an item closes it', () => {
    const button = renderMenu();
    fireEvent.click(button);
    fireEvent.pointerDown(screen.getByText('Draußen'));
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Zwei' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
