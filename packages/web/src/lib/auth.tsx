import { createContext, use, useSyncExternalStore, type ReactNode } from 'react';
import {
  completeExternalSignIn,
  completeSecondStep,
  getAuthState,
  getServerAuthState,
  linkExternalAccount,
  reloadUser,
  resetPassword,
  signIn,
  signInWithPasskey,
  signOut,
  signUp,
  subscribeAuth,
  type AuthState,
} from './auth-store.ts';

interface AuthContextValue extends AuthState {
  signIn: typeof signIn;
  completeSecondStep: typeof completeSecondStep;
  signInWithPasskey: typeof signInWithPasskey;
  signUp: typeof signUp;
  signOut: typeof signOut;
  completeExternalSignIn: typeof completeExternalSignIn;
  linkExternalAccount: typeof linkExternalAccount;
  resetPassword: typeof resetPassword;
  reloadUser: typeof reloadUser;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Holds the current user and the loading flag, and offers the session actions. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const state = useSyncExternalStore(subscribeAuth, getAuthState, getServerAuthState);
  const value: AuthContextValue = {
    ...state,
    signIn,
    completeSecondStep,
    signInWithPasskey,
    signUp,
    signOut,
    completeExternalSignIn,
    linkExternalAccount,
    resetPassword,
    reloadUser,
  };
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = use(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
