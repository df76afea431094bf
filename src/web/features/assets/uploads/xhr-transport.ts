import { ApiError } from '../../../../shared/api/client';
import type { UploadTransport } from './upload-queue';

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
