import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadedLazy } from './preloaded-lazy.js';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('preloadedLazy', () => {
  it('renders a preloaded module at once, without its fallback', async () => {
    const { Component, preload } = preloadedLazy(async () => ({ default: Greeting }));
    await preload();
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Component name="Ada" />
      </Suspense>,
    );
    // No await: the first commit already holds the component.
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('suspends as React.lazy does while the module is not here, and loads it once', async () => {
    let loads = 0;
    const { Component } = preloadedLazy(async () => {
      loads += 1;
      return { default: Greeting };
    });
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Component name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => {});
    expect(await screen.findByText('Hello Grace')).toBeTruthy();
    expect(loads).toBe(1);
  });
});
