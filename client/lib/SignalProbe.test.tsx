import { test, expect } from 'vitest';
import { render, screen, act } from '@testing-library/preact';
import { signal } from '@preact/signals-react';

// Proves the shared alias list: a component written against React + @preact/signals-react
// re-renders when a signal it reads changes, with no Babel transform.
const count = signal(0);
function Counter() {
  return <p>count {count.value}</p>;
}

test('a component re-renders when a signal it reads changes', async () => {
  render(<Counter />);
  expect(screen.getByText('count 0')).toBeTruthy();
  await act(() => {
    count.value = 5;
  });
  expect(screen.getByText('count 5')).toBeTruthy();
});
