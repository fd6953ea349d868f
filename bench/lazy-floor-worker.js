// The worker of the lazy floor's worker form (bench/lazy-floor.js
// runInWorker): given a database name, it lists the sessions as openList
// does and posts the list back.
import { openList } from "./lazy-floor.js";

self.onmessage = async ({ data: name }) => {
  const { db, sessions } = await openList(name);
  db.close();
  postMessage(sessions);
};
