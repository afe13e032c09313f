import { createApp } from "vue";
import "@booking/calendar";
import App from "./App.vue";

createApp(App).mount("#app");
