import { ApiError } from '../../../../shared/api/client';

/** An HTTP request of an upload, as the transport sends it. */
export interface UploadRequest {
  method: 'POST' | 'PUT';
  url: string;
  body: FormData;
  headers: Record<string, string>;
}

/** The answer to an upload request. */
export interface UploadResponse {
  status: number;
  statusText: string;
  text: string;
  etag: string | null;
}

/**
 * Sends an upload with progress (XMLHttpRequest in the browser: fetch has no upload progress). Rejects with an
 * ApiError: NETWORK_ERROR when no answer came, ABORTED when `signal` aborted it.
 */
export interface UploadTransport {
  send(
    request: UploadRequest,
    events: { onProgress: (loaded: number, total: number) => void; onSent: () => void; signal: AbortSignal },
  ): Promise<UploadResponse>;
}

/** Uploads with XMLHttpRequest, the one browser API that reports how much of a request body has been sent. */
export const xhrTransport: UploadTransport = {
  send(request, { onProgress, onSent, signal }) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
      xhr.upload.onload = () => onSent();
      xhr.onload = () =>
        resolve({
          status: xhr.status,
          statusText: xhr.statusText,
          text: xhr.responseText,
          etag: xhr.getResponseHeader('etag'),
        });
      xhr.onerror = () =>
        reject(
          new ApiError({
            status: 0,
            code: 'NETWORK_ERROR',
            title: 'Network error',
            detail: 'The connection broke while the file was sent. Check your connection and try again.',
          }),
        );
      const aborted = () =>
        reject(new ApiError({ status: 0, code: 'ABORTED', title: 'Cancelled', detail: 'The upload was cancelled.' }));
      xhr.onabort = aborted;
      if (signal.aborted) return aborted();
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(request.body);
    });
  },
};
