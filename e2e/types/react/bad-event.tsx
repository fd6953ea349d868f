// One mistake: a jump event's detail has no "nodeID".
import type {} from "sessiontree/react";

export const Panel = () => <session-tree-panel session-id="s" onjump={(e) => console.log(e.detail.nodeID)} />;
