// The Rollup app's entry: the
// package imported by name, resolved from this app's node_modules, and the
// chat page of ../../dom-chat/chat.js that the webpack and Parcel apps share.
import { init } from "sessiontree";
import "sessiontree/panel";
import { edit, regenerate, reply } from "sessiontree/openai";
import { startChat } from "../../dom-chat/chat.js";

startChat({ init, edit, regenerate, reply });
