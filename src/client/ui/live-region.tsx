import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

type Announce = (message: string) => void;

const AnnounceContext = createContext<Announce>(() => undefined);

/** A polite live region for the whole page; useAnnounce() speaks a message to screen readers. */
export function LiveRegionProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState('');
  const pending = useRef(new Set<number>());
  const announce = useCallback<Announce>((text) => {
    // Clearing first makes a repeated message be read again.
    setMessage('');
    const timer = window.setTimeout(() => {
      pending.current.delete(timer);
      setMessage(text);
    }, 50);
    pending.current.add(timer);
  }, []);
  // Messages still waiting when the page goes away are dropped (their timers would outlive it).
  useEffect(() => {
    const timers = pending.current;
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {message}
      </div>
    </AnnounceContext.Provider>
  );
}

export function useAnnounce(): Announce {
  return useContext(AnnounceContext);
}
