import type { AxiosError, AxiosInstance, AxiosProgressEvent, AxiosRequestConfig, Method } from 'axios';
import { safeParse } from 'zod/mini';
import type { $ZodType, output } from 'zod/v4/core';
import { loadEnv } from '@/config/env';
import type { Env } from '@/config/env';
import { MESSAGES } from '@/config/messages';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import { isRecord } from '@/lib/records';

/**
 * Who a call speaks for (SPEC §6, §7):
 * - `user`: the signed-in user's raw access token goes in `Authorization`; signed out → ApiError.
 * - `none`: the public calls (media status and view, GET users/{id}, promo-videos,
 *   frontend-configurations); never an `Authorization` header, even when signed in.
 * - `api-key-only`: auth/check; the client API key and nothing about the user.
 * Every call carries `X-CLIENT-TYPE` and `X-Api-Key`.
 */
/** `optional`: the user's token when someone is signed in, none otherwise (public pages that show more to their owner). */
export type AuthMode = 'user' | 'none' | 'api-key-only' | 'optional';


export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  auth?: AuthMode;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  onUploadProgress?: (event: AxiosProgressEvent) => void;
  /**
   * Sent as the `Idempotency-Key` header on credit-spending POSTs: the server answers a repeat of
   * the same request under the same key with the first response instead of charging again.
   */
  idempotencyKey?: string;
}

type MultipartScalar = string | number | boolean | Blob;
/** Plain objects are sent as JSON strings (SPEC §7 sends e.g. storyboard and script_board that way). */
type MultipartObject = { readonly [key: string]: unknown };
type MultipartItem = MultipartScalar | MultipartObject;
export type MultipartValue = MultipartItem | readonly MultipartItem[] | null | undefined;
export type MultipartFields = Record<string, MultipartValue>;

const CLIENT_TYPE = 'web-frontend';

// Read lazily: main.tsx parses the environment first and shows a readable list when it is
// invalid, which it could not do if importing this module threw.
let cachedEnv: Env | undefined;
const env = (): Env => (cachedEnv ??= loadEnv());

let httpInstance: Promise<AxiosInstance> | undefined;

/**
 * The one axios instance of the app; base URL and API key come from the environment. axios is
 * downloaded with the first request (beside the first render) instead of in the initial bundle;
 * a failed download is tried again by the next request.
 */
export const loadHttp = (): Promise<AxiosInstance> => {
  httpInstance ??= import('axios').then(
    ({ default: axios }) => {
      const http = axios.create();
      http.interceptors.request.use((config) => {
        const { apiUrl, apiKey } = env();
        config.baseURL = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
        config.headers.set('X-CLIENT-TYPE', CLIENT_TYPE);
        config.headers.set('X-Api-Key', apiKey);
        return config;
      });
      return http;
    },
    (error: unknown) => {
      httpInstance = undefined;
      throw error;
    },
  );
  return httpInstance;
};

// Downloading starts when this module loads (at boot), so the first request does not wait for it.
loadHttp().catch(() => undefined);

/** axios's own `isAxiosError`, without importing axios into the initial bundle. */
const isAxiosError = (error: unknown): error is AxiosError => isRecord(error) && error.isAxiosError === true;

const appendItem = (form: FormData, key: string, item: MultipartItem): void => {
  // A File is a Blob and keeps its own name as the part's file name.
  if (item instanceof Blob) form.append(key, item);
  else if (typeof item === 'object') form.append(key, JSON.stringify(item));
  else form.append(key, String(item));
};

/**
 * Multipart body of SPEC §7: an array becomes the same key repeated once per item, a plain
 * object a JSON string, a File or Blob stays a file part; null and undefined fields are left out.
 */
export const toFormData = (fields: MultipartFields): FormData => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly MultipartItem[]) appendItem(form, key, item);
    } else {
      appendItem(form, key, value as MultipartItem);
    }
  }
  return form;
};


const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** SPEC §7/§8: the message of a failure is detail, else message, else "api error". */
export const apiErrorMessage = (body: unknown): string => {
  if (!isRecord(body)) return MESSAGES.apiError;
  return nonEmptyString(body.detail) ?? nonEmptyString(body.message) ?? MESSAGES.apiError;
};

const authorizationFor = async (auth: AuthMode): Promise<string | undefined> => {
  if (auth === 'optional') {
    try {
      return (await getAccessToken()) ?? undefined;
    } catch {
      return undefined;
    }
  }
  if (auth !== 'user') return undefined;
  // getAccessToken throws ApiError(MESSAGES.noSession) itself when there is no session at all.
  const token = await getAccessToken();
  if (!token) throw new ApiError(MESSAGES.notAuthenticated, { kind: 'auth' });
  return token;
};

const describe = (method: Method, path: string) => `${method.toUpperCase()} ${path}`;

const toApiError = (error: unknown, method: Method, path: string): ApiError => {
  if (error instanceof ApiError) return error;
  if (isAxiosError(error) && error.response) {
    return new ApiError(apiErrorMessage(error.response.data), {
      kind: 'http',
      status: error.response.status,
      cause: error,
    });
  }
  const reason = error instanceof Error && error.message ? `: ${error.message}` : '';
  return new ApiError(`Network error on ${describe(method, path)}${reason}`, { kind: 'network', cause: error });
};

const parsePayload = <S extends $ZodType>(body: unknown, schema: S, method: Method, path: string): output<S> => {
  if (!isRecord(body) || !('data' in body)) {
    throw new ApiError(`Unexpected response from ${describe(method, path)}: no data field`, { kind: 'parse' });
  }
  // zod's `safeParse` as a function: it takes a `zod` or a `zod/mini` schema alike.
  const result = safeParse(schema, body.data);
  if (!result.success) {
    const issues = result.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
    throw new ApiError(`Unexpected response from ${describe(method, path)}: ${issues}`, {
      kind: 'parse',
      cause: result.error,
    });
  }
  return result.data;
};

const request = async <S extends $ZodType>(
  method: Method,
  path: string,
  schema: S,
  body: { json: unknown } | { form: FormData } | undefined,
  options: RequestOptions = {},
): Promise<output<S>> => {
  const authorization = await authorizationFor(options.auth ?? 'user');
  const headers: Record<string, string> = {};
  if (authorization) headers.Authorization = authorization;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const config: AxiosRequestConfig = {
    method,
    url: path,
    headers,
    params: options.query,
    signal: options.signal,
    onUploadProgress: options.onUploadProgress,
  };
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    config.data = JSON.stringify(body.json);
  } else if (body) {
    // Left to the browser so the multipart boundary is filled in.
    config.data = body.form;
  }
  let responseBody: unknown;
  try {
    responseBody = (await (await loadHttp()).request<unknown>(config)).data;
  } catch (error) {
    throw toApiError(error, method, path);
  }
  return parsePayload(responseBody, schema, method, path);
};

export const apiGet = <S extends $ZodType>(path: string, schema: S, options?: RequestOptions) =>
  request('get', path, schema, undefined, options);

export const apiDelete = <S extends $ZodType>(path: string, schema: S, options?: RequestOptions) =>
  request('delete', path, schema, undefined, options);

export const apiPostJson = <S extends $ZodType>(path: string, body: unknown, schema: S, options?: RequestOptions) =>
  request('post', path, schema, { json: body }, options);

export const apiPutJson = <S extends $ZodType>(path: string, body: unknown, schema: S, options?: RequestOptions) =>
  request('put', path, schema, { json: body }, options);

export const apiPatchJson = <S extends $ZodType>(path: string, body: unknown, schema: S, options?: RequestOptions) =>
  request('patch', path, schema, { json: body }, options);

export const apiPostMultipart = <S extends $ZodType>(
  path: string,
  fields: MultipartFields,
  schema: S,
  options?: RequestOptions,
) => request('post', path, schema, { form: toFormData(fields) }, options);

export const apiPutMultipart = <S extends $ZodType>(
  path: string,
  fields: MultipartFields,
  schema: S,
  options?: RequestOptions,
) => request('put', path, schema, { form: toFormData(fields) }, options);

/**
 * The fraction (0…1) of an upload sent so far, from axios's progress event; null when the browser
 * cannot tell the total.
 */
export const uploadFraction = (event: AxiosProgressEvent): number | null => {
  if (typeof event.progress === 'number') return Math.min(Math.max(event.progress, 0), 1);
  if (event.total && event.total > 0) return Math.min(Math.max(event.loaded / event.total, 0), 1);
  return null;
};
