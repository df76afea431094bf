import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api/client';
import { ReauthProvider } from '../../lib/reauth';
import { isConflict, useSaveRunner } from './save-runner';

const error = (status: number) =>
  new ApiError({ status, code: status === 401 ? 'UNAUTHENTICATED' : 'PRECONDITION_FAILED', title: '', detail: '' });

function runnerWith(reauthenticate: () => Promise<boolean>) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ReauthProvider value={{ reauthenticate }}>{children}</ReauthProvider>
  );
  return renderHook(() => useSaveRunner(), { wrapper }).result.current;
}

describe('useSaveRunner', () => {
  it('after a 401 waits for the user to sign in again, then sends the same save once more', async () => {
    const reauthenticate = vi.fn(async () => true);
    const attempt = vi.fn().mockRejectedValueOnce(error(401)).mockResolvedValueOnce('saved');
    await expect(runnerWith(reauthenticate)(attempt)).resolves.toBe('saved');
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(attempt).toHaveBeenCalledTimes(2);
  });

  it('gives up with the 401 when the user signs out instead', async () => {
    const attempt = vi.fn().mockRejectedValue(error(401));
    await expect(runnerWith(async () => false)(attempt)).rejects.toMatchObject({ status: 401 });
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('leaves a 412 to the caller (the conflict dialog), never retrying it', async () => {
    const reauthenticate = vi.fn(async () => true);
    const attempt = vi.fn().mockRejectedValue(error(412));
    const failure = await runnerWith(reauthenticate)(attempt).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(reauthenticate).not.toHaveBeenCalled();
  });
});
