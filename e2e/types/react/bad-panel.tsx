// One mistake: a row-click value the panel does not take.
import "sessiontree/panel";
import type {} from "sessiontree/react";

export const Panel = () => <session-tree-panel session-id="s" row-click="open" />;
