import { lazy, type ComponentType } from 'react';

/**
 * A lazy component whose module can be fetched ahead (`preload`). Once the module is here, the component's first
 * render takes it at once instead of suspending: a suspended first render shows its boundary's fallback, and React
 * then holds the real view back for its reveal throttle (300 ms) although nothing is left to load.
 */
export function preloadedLazy<Module extends { default: ComponentType<never> }>(
  load: () => Promise<Module>,
): { Component: Module['default']; preload: () => Promise<Module> } {
  let loaded: Module | null = null;
  let loading: Promise<Module> | null = null;
  const preload = () => {
    loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = null; // a failed fetch is tried again by the next render
        throw error;
      },
    );
    return loading;
  };
  // A thenable that answers synchronously: React.lazy takes its module before it would suspend.
  const Component = lazy(() =>
    loaded
      ? ({ then: (resolve: (module: Module) => void) => resolve(loaded as Module) } as never)
      : (preload() as never),
  );
  return { Component: Component as unknown as Module['default'], preload };
}
