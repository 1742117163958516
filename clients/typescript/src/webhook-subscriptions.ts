// Completion webhook subscriptions of a workflow, their test event, delivery history and redelivery.
import type { Api, RequestOptions } from './api.js';
import type { Delivery, DeliveryPage, Subscription, SubscriptionCreate, SubscriptionUpdate } from './types.js';

export function webhookCalls({ api, answer }: Api) {
  const subscriptionPath = (workflowId: string, subscriptionId: string) => ({ path: { workflowId, subscriptionId } });
  return {
    list: (workflowId: string, opts: RequestOptions = {}): Promise<Subscription[]> =>
      answer(api.GET('/api/v1/workflows/{workflowId}/webhooks', { params: { path: { workflowId } }, signal: opts.signal })).then((r) => r.data),
    create: (workflowId: string, body: SubscriptionCreate, opts: RequestOptions = {}): Promise<Subscription> =>
      answer(api.POST('/api/v1/workflows/{workflowId}/webhooks', { params: { path: { workflowId } }, body, signal: opts.signal })).then(
        (r) => r.data,
      ),
    get: (workflowId: string, subscriptionId: string, opts: RequestOptions = {}): Promise<Subscription> =>
      answer(
        api.GET('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', { params: subscriptionPath(workflowId, subscriptionId), signal: opts.signal }),
      ).then((r) => r.data),
    update: (workflowId: string, subscriptionId: string, body: SubscriptionUpdate, opts: RequestOptions = {}): Promise<Subscription> =>
      answer(
        api.PATCH('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', {
          params: subscriptionPath(workflowId, subscriptionId),
          body,
          signal: opts.signal,
        }),
      ).then((r) => r.data),
    delete: (workflowId: string, subscriptionId: string, opts: RequestOptions = {}): Promise<void> =>
      answer(
        api.DELETE('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', { params: subscriptionPath(workflowId, subscriptionId), signal: opts.signal }),
      ).then(() => undefined),
    /** Sends a signed test event; the delivery it made. */
    test: (workflowId: string, subscriptionId: string, opts: RequestOptions = {}): Promise<Delivery> =>
      answer(
        api.POST('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/test', {
          params: subscriptionPath(workflowId, subscriptionId),
          signal: opts.signal,
        }),
      ).then((r) => r.data),
    deliveries: (
      workflowId: string,
      subscriptionId: string,
      query: { limit?: number; cursor?: string } = {},
      opts: RequestOptions = {},
    ): Promise<DeliveryPage> =>
      answer(
        api.GET('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries', {
          params: { ...subscriptionPath(workflowId, subscriptionId), query },
          signal: opts.signal,
        }),
      ),
    redeliver: (workflowId: string, deliveryId: string, opts: RequestOptions = {}): Promise<Delivery> =>
      answer(
        api.POST('/api/v1/workflows/{workflowId}/webhooks/deliveries/{deliveryId}/redeliver', {
          params: { path: { workflowId, deliveryId } },
          signal: opts.signal,
        }),
      ).then((r) => r.data),
  };

}
