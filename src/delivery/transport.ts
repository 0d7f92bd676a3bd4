import type { Message } from '../services/messages/index.ts';

/** Where a message goes. Resolving means delivered; throwing DeliveryError means try again later. */
export interface Transport {
  readonly name: string;
  deliver(message: Message): Promise<void>;
}

/** A failed attempt, with a reason safe to store and show on the message record. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}
