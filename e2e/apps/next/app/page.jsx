import { Chat } from "./chat";

/** The one page: the chat, a client component. */
export default function Page() {
  return <Chat />;
}
