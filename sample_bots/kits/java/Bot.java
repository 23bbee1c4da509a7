// A Truco Arena stdio bot in Java (docs/protocol.md, "Stdio bots").
// Reads one JSON object per line; answers each decision with an action id.
// Its one idea: accept every bet, else play a card, never go to the mazo.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    // The texts of "legal_actions":["...","..."] (action texts hold no quotes).
    static List<String> legalActions(String line) {
        List<String> out = new ArrayList<>();
        int p = line.indexOf("\"legal_actions\":[") + 17;
        while (line.charAt(p) == '"') {
            int end = line.indexOf('"', p + 1);
            out.add(line.substring(p + 1, end));
            p = end + 1;
            if (line.charAt(p) == ',') p++;
        }
        return out;
    }

    static int first(List<String> legal, String prefix) {
        for (int i = 0; i < legal.size(); i++) if (legal.get(i).startsWith(prefix)) return i;
        return -1;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.contains("\"type\":\"decision\"")) continue;
            List<String> legal = legalActions(line);
            int id = first(legal, "quiero");
            if (id < 0) id = first(legal, "play ");
            if (id < 0) id = 0;
            System.err.println("java bot: " + legal.get(id));
            System.out.println(id);
            System.out.flush();
        }
    }
}
