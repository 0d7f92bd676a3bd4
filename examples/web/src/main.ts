import type { PetStatus, PetsPageQueryVariables } from './__generated__/graphql';
import { explain, hasApiKey, isUnauthorized, run, setAccessToken, setApiKey, signedIn, signOut, subscribe } from './api';
import { finishSignIn, signInWith } from './sign-in';
import { AdvanceOrder, CreatePet, MessageUpdated, MyOrders, PetsPage, PlaceOrder, SendMessage } from './operations';

const PAGE_SIZE = 5;

const $ = <T extends HTMLElement>(id: string) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
};

const say = (id: string, error: unknown) => {
  $(id).textContent = explain(error);
};

function item(text: string, testId: string, ...buttons: HTMLButtonElement[]): HTMLLIElement {
  const li = document.createElement('li');
  li.dataset.testid = testId;
  li.append(text, ...buttons);
  return li;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

// Pets, a page at a time, either way: Relay's cursors from the server's pageInfo.
let page: PetsPageQueryVariables = { first: PAGE_SIZE };

async function showPets(): Promise<void> {
  const status = ($<HTMLSelectElement>('status-filter').value || undefined) as PetStatus | undefined;
  const { pets } = await run(PetsPage, { ...page, status });
  $('pets').replaceChildren(
    ...pets.nodes.map((pet) =>
      item(
        `${pet.name} (#${pet.id}, ${pet.status})`,
        `pet-${pet.id}`,
        ...(pet.status === 'available' ? [button('Order', () => void placeOrder(pet.id))] : []),
      ),
    ),
  );
  const { hasNextPage, hasPreviousPage, startCursor, endCursor } = pets.pageInfo;
  const next = $<HTMLButtonElement>('next');
  const previous = $<HTMLButtonElement>('previous');
  next.disabled = !hasNextPage;
  previous.disabled = !hasPreviousPage;
  next.onclick = () => {
    page = { first: PAGE_SIZE, after: endCursor };
    void refresh(showPets);
  };
  previous.onclick = () => {
    page = { last: PAGE_SIZE, before: startCursor };
    void refresh(showPets);
  };
}

async function showOrders(): Promise<void> {
  const { orders } = await run(MyOrders, {});
  $('orders').replaceChildren(
    ...orders.nodes.map((order) => {
      const nextStep = order.status === 'placed' ? 'approved' : order.status === 'approved' ? 'delivered' : null;
      const advance = nextStep
        ? [button(nextStep === 'approved' ? 'Approve' : 'Deliver', () => void advanceOrder(order.id, nextStep))]
        : [];
      return item(`Order #${order.id}: ${order.pet.name}, ${order.status}`, `order-${order.id}`, ...advance);
    }),
  );
}

async function placeOrder(petId: string): Promise<void> {
  $('order-error').textContent = '';
  try {
    await run(PlaceOrder, { petId });
  } catch (error) {
    say('order-error', error);
  }
  await refresh();
}

async function advanceOrder(id: string, status: 'approved' | 'delivered'): Promise<void> {
  $('order-error').textContent = '';
  try {
    await run(AdvanceOrder, { id, status });
  } catch (error) {
    say('order-error', error);
  }
  await refresh();
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  setApiKey($<HTMLInputElement>('key').value);
  // The key is set: what the status said before it is no longer true, whatever the reads say next.
  $('key-status').textContent = hasApiKey() ? 'Loading…' : '';
  void refresh();
});

$('status-filter').addEventListener('change', () => {
  page = { first: PAGE_SIZE };
  void refresh(showPets);
});

$('create-pet').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('create-error').textContent = '';
  try {
    await run(CreatePet, {
      input: { name: $<HTMLInputElement>('pet-name').value, categoryId: Number($<HTMLInputElement>('pet-category').value) },
    });
    $<HTMLInputElement>('pet-name').value = '';
    await showPets();
  } catch (error) {
    // The server's own words, e.g. "Argument 'name' must contain a non-blank character."
    say('create-error', error);
  }
});

// A message's delivery, watched live: the status updates as the server pushes it.
$('send-message').addEventListener('submit', async (event) => {
  event.preventDefault();
  const output = $('message-status');
  try {
    const { sendMessage } = await run(SendMessage, { message: $<HTMLInputElement>('message-text').value });
    output.textContent = sendMessage.status;
    for await (const { messageUpdated } of subscribe(MessageUpdated, { id: sendMessage.id })) {
      output.textContent = `${messageUpdated.status} (${messageUpdated.attempts} attempts)`;
    }
  } catch (error) {
    say('message-status', error);
  }
});

let signingIn = false;

/**
 * Reads what the page shows, once a key is set or the person signed in: nothing is sent without
 * one. What went wrong shows beside the key, and goes once a read succeeds.
 */
async function refresh(...reads: (() => Promise<void>)[]): Promise<void> {
  if (!hasApiKey()) {
    $('key-status').textContent = signingIn
      ? 'Sign in to see the store.'
      : 'Paste your API key above (the first start of the server printed one).';
    return;
  }
  try {
    await Promise.all(reads.length > 0 ? reads.map((read) => read()) : [showPets(), showOrders()]);
    $('key-status').textContent = '';
  } catch (error) {
    if (signingIn && isUnauthorized(error)) {
      // The access token ran out (or was refused): the person signs in again.
      signOut();
      $('who').hidden = true;
      $('sign-in').hidden = false;
      $('key-status').textContent = 'Your sign-in has ended: sign in again.';
      return;
    }
    say('key-status', error);
  }
}

/**
 * Where the server accepts access tokens from an issuer, the page signs its person in there
 * instead of asking for a key (a code coming back from the issuer is exchanged first); where it
 * does not, the key field stays.
 */
async function start(): Promise<void> {
  try {
    const back = await finishSignIn();
    if (back) setAccessToken(back.accessToken, { name: back.name, idToken: back.idToken });
    const signIn = await signInWith();
    if (signIn) {
      signingIn = true;
      $('key-form').hidden = true;
      const button = $<HTMLButtonElement>('sign-in');
      button.hidden = hasApiKey();
      button.textContent = `Sign in with ${new URL(signIn.issuer).host}`;
      button.onclick = () => void signIn.start();
      // Who is signed in, and a way out: forgotten here, and their session at the issuer ended too where it offers that.
      const who = signedIn();
      $('who').hidden = who === null;
      $('who-name').textContent = who ? `Signed in as ${who.name}` : '';
      $('sign-out').onclick = () => {
        const endSession = signIn.endSession(signedIn()?.idToken ?? null);
        signOut();
        if (endSession) location.assign(endSession);
        else void start();
      };
    }
  } catch (error) {
    say('key-status', error);
    return;
  }
  await refresh();
}

void start();
