import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSession } from './session';

/**
 * The data API, `/gateway` and batch jobs take an API key, never a session (spec 4.2 and 5). The
 * dashboard holds one key for those calls in this tab only (sessionStorage: gone when the tab closes,
 * dropped on sign-out), created on request or pasted by the user.
 */
interface DataKeyState {
  key: string | null;
  use: (key: string) => void;
  forget: () => void;
}

const DataKeyContext = createContext<DataKeyState>({ key: null, use: () => undefined, forget: () => undefined });
const storageKey = (operatorId: string) => `operator-platform.data-key.${operatorId}`;

export function DataKeyProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const operatorId = session.status === 'signed-in' ? session.member.operatorId : null;
  const [key, setKey] = useState<string | null>(null);

  useEffect(() => {
    if (session.status === 'signed-out') {
      for (const name of Object.keys(sessionStorage)) if (name.startsWith('operator-platform.data-key.')) sessionStorage.removeItem(name);
    }
    setKey(operatorId ? sessionStorage.getItem(storageKey(operatorId)) : null);
  }, [operatorId, session.status]);

  const use = useCallback(
    (value: string) => {
      if (!operatorId) return;
      sessionStorage.setItem(storageKey(operatorId), value);
      setKey(value);
    },
    [operatorId],
  );
  const forget = useCallback(() => {
    if (operatorId) sessionStorage.removeItem(storageKey(operatorId));
    setKey(null);
  }, [operatorId]);

  const value = useMemo(() => ({ key, use, forget }), [key, use, forget]);
  return <DataKeyContext.Provider value={value}>{children}</DataKeyContext.Provider>;
}

export const useDataKey = (): DataKeyState => useContext(DataKeyContext);
