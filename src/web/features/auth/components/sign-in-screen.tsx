import type { Me } from '../../../../shared/api/auth';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { ThemeSwitch } from '../../../components/ui/theme-switch';
import type { SessionEnd } from '../api/session';
import { SignInForm } from './sign-in-form';
import './sign-in.css';

/** The whole sign-in page: product name, why the user is here (signed out, session ended) and the form. */
export function SignInScreen({ ended, onSignedIn }: { ended?: SessionEnd; onSignedIn?: (user: Me) => void }) {
  return (
    <div className="sign-in">
      <div className="sign-in__theme">
        <ThemeSwitch />
      </div>
      <main className="sign-in__card">
        <p className="sign-in__brand" aria-hidden="true">
          Folio
        </p>
        <h1 className="sign-in__title">Sign in to Folio</h1>
        <p className="sign-in__lead">Manage your sites, pages and assets.</p>
        {ended === 'expired' && (
          <InlineAlert tone="info">Your session has ended. Sign in again to continue where you were.</InlineAlert>
        )}
        {ended === 'signed-out' && <InlineAlert tone="info">You have signed out.</InlineAlert>}
        <SignInForm onSignedIn={onSignedIn} />
      </main>
    </div>
  );
}
