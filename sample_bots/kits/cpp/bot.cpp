// A Truco Arena stdio bot in C++ (docs/protocol.md, "Stdio bots").
// Reads one JSON object per line; answers each decision with an action id.
// Its one idea: accept every bet, else play a card, never go to the mazo.
#include <iostream>
#include <string>
#include <vector>

// The texts of "legal_actions":["...","..."] (action texts hold no quotes).
static std::vector<std::string> legal_actions(const std::string &line) {
    std::vector<std::string> out;
    size_t p = line.find("\"legal_actions\":[") + 17;
    while (line[p] == '"') {
        size_t end = line.find('"', p + 1);
        out.push_back(line.substr(p + 1, end - p - 1));
        p = end + 1;
        if (line[p] == ',') p++;
    }
    return out;
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"type\":\"decision\"") == std::string::npos) continue;
        std::vector<std::string> legal = legal_actions(line);
        int id = -1;
        for (const char *prefix : {"quiero", "play "}) {
            for (size_t i = 0; i < legal.size() && id < 0; i++)
                if (legal[i].rfind(prefix, 0) == 0) id = static_cast<int>(i);
        }
        if (id < 0) id = 0;
        std::cerr << "c++ bot: " << legal[id] << "\n";
        std::cout << id << std::endl;  // endl flushes: the arena waits for this line
    }
}
