import { createContext, useContext, type ReactNode } from 'react';

/**
 * Signing in again without leaving the screen: when a call answers 401, the app asks the user to sign in in a
 * dialog; `reauthenticate` resolves true once they have (the call can be retried), false when they signed out
 * instead. The app provides it (`app/routes/require-session.tsx`); savers use it through `kit/saving`.
 */
export interface Reauth {
  reauthenticate(): Promise<boolean>;
}

const NO_REAUTH: Reauth = { reauthenticate: async () => false };
const ReauthContext = createContext<Reauth>(NO_REAUTH);

/** Makes `value` the way to sign in again for everything below. */
export function ReauthProvider({ value, children }: { value: Reauth; children: ReactNode }) {
  return <ReauthContext.Provider value={value}>{children}</ReauthContext.Provider>;
}

/** The app's way to sign in again (outside a provider: never, so a 401 stays an error). */
export function useReauth(): Reauth {
  return useContext(ReauthContext);
}
